"""`mjrules play`: a hand of any variant in the browser, a person against built-in agents, through the game's step
API (`table`), served on 127.0.0.1 (`server`, the `play` extra: `pip install 'mjrules[play]'`)."""

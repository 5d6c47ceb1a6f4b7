"""The `mjrules` command line (`main`), and the readable views of a variant it prints.

    main        the commands: check, show, build, score, waits, simulate, replay, diff, bench, lsp, play
    show        a variant's expressions in spec syntax, its Markdown rule book, a summary line
    vocabulary  the spec language's vocabulary, from the compiler's own definitions (the reference pages)
"""

"""Package data: the shipped variant specs (*.mj)."""

"""One module per family of actions, each holding its legality check and its transition."""

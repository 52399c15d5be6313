"""The app's panes, one module each; ``main_window.PANES`` says which and in what order."""

"""The app's panes, one module each, all :class:`~.base.Pane` subclasses; ``wubitok.earlyinit.PANES`` lists them."""

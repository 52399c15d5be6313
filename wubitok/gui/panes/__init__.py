"""The app's panes, one module each, all :class:`~.base.Pane` subclasses; ``services.earlyinit.PANES`` lists them."""

"""What every pane leans on: background jobs, settings, theme, fonts, language, error dialogs, models."""

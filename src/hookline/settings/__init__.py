"""hookline.settings."""

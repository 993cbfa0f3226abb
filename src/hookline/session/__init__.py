"""hookline.session."""

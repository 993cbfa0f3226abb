"""hookline.modes."""

"""hookline.claude."""

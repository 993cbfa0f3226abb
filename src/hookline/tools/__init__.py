"""hookline.tools."""

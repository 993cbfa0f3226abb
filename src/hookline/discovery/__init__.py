"""hookline.discovery."""

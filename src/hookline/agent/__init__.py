"""hookline.agent."""

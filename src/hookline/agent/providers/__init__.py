"""Model providers: scripted (the embedded default), anthropic, openai."""

"""The Hub Space the three metric folders share: a gradio app over the evaluate modules."""

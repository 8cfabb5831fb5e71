"""Text helpers every stage shares: property names and their paraphrases, values (dates,
numbers) as quantities, sentence boundaries. The bottom layer: imports nothing above ``kg``."""

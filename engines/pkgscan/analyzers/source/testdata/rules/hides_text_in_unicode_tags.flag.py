# Emoji subdivision flags only: short tag runs, not hidden text.
# ok: hides_text_in_unicode_tags
FLAGS = ["🏴󠁧󠁢󠁥󠁮󠁧󠁿", "🏴󠁧󠁢󠁥󠁮󠁧󠁿"]

# Screenshots by PIL under another name.
# ruleid: captures_screen
from PIL import ImageGrab as grabber
shot = grabber.grab(all_screens=True)
# ok: captures_screen
from PIL import Image

# An image tool: copy and paste of pictures, no clipboard module, though it polls and names an address pattern.
import time
from PIL import Image
ADDRESS = r'0x[a-fA-F0-9]{40}'
while True:
    canvas.paste(tile, (0, 0))
    # ok: clipboard_address_swap
    out = copy.copy(canvas)
    time.sleep(1)

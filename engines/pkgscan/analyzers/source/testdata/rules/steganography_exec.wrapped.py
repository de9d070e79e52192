from PIL import Image
import lsb
# ruleid: steganography_exec
exec(lsb.reveal("cat.png"))

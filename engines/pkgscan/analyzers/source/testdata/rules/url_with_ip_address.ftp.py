import ftplib
import io

# ruleid: url_with_ip_address
_DEST = ("45.153.241.86", "upl", "upl#2025")


def flush(queue):
    ftp = ftplib.FTP(_DEST[0], timeout=15)
    ftp.login(_DEST[1], _DEST[2])
    for name, blob in queue:
        ftp.storbinary("STOR " + name, io.BytesIO(blob))


def direct():
    # ruleid: url_with_ip_address
    return ftplib.FTP("198.51.100.23")


def lan():
    # a server on the private network the user configured
    # ok: url_with_ip_address
    return ftplib.FTP("192.168.1.20")

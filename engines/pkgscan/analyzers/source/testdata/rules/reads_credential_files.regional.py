# the cloud command-line tools' credential files of Alibaba, Tencent, Yandex and Naver
import os
HOME = os.path.expanduser("~")
# ruleid: reads_credential_files
ALIYUN = os.path.join(HOME, ".aliyun", "config.json")
# ruleid: reads_credential_files
TCCLI = os.path.join(HOME, ".tccli", "default.credential")
# ruleid: reads_credential_files
YC = os.path.join(HOME, ".config/yandex-cloud/config.yaml")
# ok: reads_credential_files
THEMES = os.path.join(HOME, ".aliyun-theme", "colors.json")

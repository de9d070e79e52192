# ok: deletes_home_folder
rm -rf ~/.cache/mytool
# ruleid: deletes_home_folder
rm -rf --no-preserve-root /

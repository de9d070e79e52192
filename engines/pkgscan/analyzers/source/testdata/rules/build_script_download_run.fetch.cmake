# A pinned source archive downloaded with its hash and unpacked with cmake -E tar.
set(_zstd "${CMAKE_BINARY_DIR}/zstd-1.5.6.tar.gz")
# ok: build_script_download_run
file(DOWNLOAD "https://github.com/facebook/zstd/releases/download/v1.5.6/zstd-1.5.6.tar.gz" "${_zstd}" EXPECTED_HASH SHA256=8c29e06cf42aacc1eafc4077ae2ec6c6fcb96a626157e0593d5e82a34fd403c1)
execute_process(COMMAND ${CMAKE_COMMAND} -E tar xzf ${_zstd} WORKING_DIRECTORY ${CMAKE_BINARY_DIR})

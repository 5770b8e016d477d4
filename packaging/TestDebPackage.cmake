# ctest -P script: cpack -G DEB, dpkg -x into a temporary root, run the CLI from there.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
execute_process(COMMAND cpack -G DEB -B ${WORK_DIR}/out WORKING_DIRECTORY ${BUILD_DIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cpack failed (${rc}):\n${out}\n${err}")
endif()
file(GLOB debs ${WORK_DIR}/out/*.deb)
list(LENGTH debs n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected one .deb, found: ${debs}")
endif()
execute_process(COMMAND dpkg-deb --field ${debs} Depends OUTPUT_VARIABLE depends)
message(STATUS "Depends: ${depends}")
foreach(lib libtorch libqt6widgets6 libopenblas0-pthread)
  string(FIND "${depends}" "${lib}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "Depends lacks ${lib}: ${depends}")
  endif()
endforeach()
execute_process(COMMAND dpkg -x ${debs} ${WORK_DIR}/root RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dpkg -x failed")
endif()
foreach(f usr/bin/attnlab usr/bin/attnlab-cli usr/libexec/attnlab/attnlab-cli-engine usr/share/applications/org.attnlab.AttnLab.desktop
          usr/share/metainfo/org.attnlab.AttnLab.metainfo.xml
          usr/share/icons/hicolor/scalable/apps/org.attnlab.AttnLab.svg
          usr/share/icons/hicolor/48x48/apps/org.attnlab.AttnLab.png
          usr/share/icons/hicolor/256x256/apps/org.attnlab.AttnLab.png
          usr/share/man/man1/attnlab-cli.1
          usr/share/attnlab/lessons/translate-1-alignment.json)
  if(NOT EXISTS ${WORK_DIR}/root/${f} AND NOT EXISTS ${WORK_DIR}/root/${f}.gz)
    message(FATAL_ERROR "package lacks ${f}")
  endif()
endforeach()
foreach(arg --version --help)
  execute_process(COMMAND ${WORK_DIR}/root/usr/bin/attnlab-cli ${arg} RESULT_VARIABLE rc OUTPUT_VARIABLE out)
  if(NOT rc EQUAL 0 OR out STREQUAL "")
    message(FATAL_ERROR "attnlab-cli ${arg} from the package failed (${rc})")
  endif()
  message(STATUS "attnlab-cli ${arg}: ${out}")
endforeach()
# A command that needs the engine: the front end must find it where the package put it.
execute_process(COMMAND ${WORK_DIR}/root/usr/bin/attnlab-cli translate --model ${WORK_DIR}/absent.safetensors x
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 4 OR NOT err MATCHES "absent.safetensors")
  message(FATAL_ERROR "attnlab-cli translate from the package did not reach its engine (${rc}): ${err}")
endif()
message(STATUS "attnlab-cli translate from the package: ${err}")
# The lessons: the packaged front end finds them in usr/share/attnlab/lessons (ATTNLAB_LESSON_DIR unset).
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=ATTNLAB_LESSON_DIR ${WORK_DIR}/root/usr/bin/attnlab-cli lessons --json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "usr/share/attnlab/lessons/translate-1-alignment.json")
  message(FATAL_ERROR "attnlab-cli lessons from the package did not find the lessons (${rc}): ${out}${err}")
endif()


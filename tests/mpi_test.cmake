# matsamp_add_mpi_tests(<target> NP <n>...): one test <target>_np<n> per process
# count, running the target under mpirun with one OpenMP thread per rank.
# --allow-run-as-root and --oversubscribe let it run as root (containers, CI) and
# on machines with fewer cores than ranks.
function(matsamp_add_mpi_tests target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "NP")
  if(NOT ARG_NP OR ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "matsamp_add_mpi_tests(${target} NP <n>...): bad arguments ${ARGN}")
  endif()
  foreach(np IN LISTS ARG_NP)
    add_test(NAME ${target}_np${np}
             COMMAND ${MPIEXEC_EXECUTABLE} --allow-run-as-root --oversubscribe ${MPIEXEC_NUMPROC_FLAG} ${np}
                     -x OMP_NUM_THREADS=1 $<TARGET_FILE:${target}>)
    set_tests_properties(${target}_np${np} PROPERTIES TIMEOUT 600 PROCESSORS 2)
  endforeach()
endfunction()

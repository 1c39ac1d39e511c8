# tests/python.cmake: the Python interpreter the tests run. Included by CMakeLists.txt after the tests are
# declared; every test gets the virtual environment's bin/ first on its PATH, so `python3` and the scripts'
# `#!/usr/bin/env python3` start it, in scripts/test.sh and in a bare ctest alike.
#
# The tests need only the standard library and start Python thousands of times. An interpreter's
# site-packages can run code at every start (here a .pth file imports certifi, 3-4x the start's CPU:
# 90 ms against 30), and a version manager's shim in front of it costs 0.13 s more; an environment of its
# own, without the system's site-packages, made from the interpreter the shim resolves to, has neither.
find_program(LDGSM_HOST_PYTHON NAMES python3 REQUIRED)
set(LDGSM_TEST_VENV ${CMAKE_BINARY_DIR}/test-venv)
if(NOT EXISTS ${LDGSM_TEST_VENV}/bin/python3)
  execute_process(
    COMMAND ${LDGSM_HOST_PYTHON} -c "import sys, venv; venv.EnvBuilder(with_pip=False).create(sys.argv[1])"
            ${LDGSM_TEST_VENV}
    RESULT_VARIABLE venv_status)
  if(NOT venv_status EQUAL 0)
    message(FATAL_ERROR "could not create the tests' Python environment in ${LDGSM_TEST_VENV}")
  endif()
endif()
get_property(LDGSM_PYTHON_TESTS DIRECTORY PROPERTY TESTS)
set_tests_properties(${LDGSM_PYTHON_TESTS} PROPERTIES
  ENVIRONMENT_MODIFICATION "PATH=path_list_prepend:${LDGSM_TEST_VENV}/bin")

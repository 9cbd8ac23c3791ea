# Where `cmake --install build --prefix PREFIX` puts gpubench (GNUInstallDirs): the programs in PREFIX/bin, the
# baselines in PREFIX/share/gpubench/baselines. The installed gpubench finds its baselines from its own folder
# (harness/cli/baseline_location.cpp), through GPUBENCH_BASELINES_FROM_BINDIR, so a prefix can be moved whole.
include(GNUInstallDirs)
set(GPUBENCH_BASELINES_INSTALL_DIR "${CMAKE_INSTALL_DATADIR}/gpubench/baselines")
cmake_path(RELATIVE_PATH CMAKE_INSTALL_FULL_DATADIR BASE_DIRECTORY "${CMAKE_INSTALL_FULL_BINDIR}"
           OUTPUT_VARIABLE _gpubench_datadir_from_bindir)
set(GPUBENCH_BASELINES_FROM_BINDIR "${_gpubench_datadir_from_bindir}/gpubench/baselines")

# The installed programs keep the run-time paths of the libraries they link outside this tree (the toolkit's
# cuBLAS, NCCL), as the build tree's do, so they start where those folders are not in ld.so's cache.
set(CMAKE_INSTALL_RPATH_USE_LINK_PATH ON)

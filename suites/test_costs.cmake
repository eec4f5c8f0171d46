# Included by ctest after the GoogleTest programs' tests are discovered (suites/CMakeLists.txt): the longest of them
# on two cores, in seconds from a fresh clone's .ci/run, as their COST, so that ctest starts them first when it has
# no timings of its own (a fresh build; once it has run, CTest schedules by what it measured). A name this build does
# not have is passed over.
foreach(entry "FaultCatalog.EveryFaultIsCaughtOnTheEmulator:77"
              "Characterize.ReportsProbesThatNoParameterSetExplains:51"
              "Gate.AnInstallRunsFromAnywhereWithoutItsBuild:46"
              "NumericModel.EveryEquivalenceItClaimsHoldsOnRandomAndSpecialCases:34"
              "Characterize.RecoversARecordForRandomParameterSetsOfTheDeclaredSpace:20"
              "Untrusted.ASecondRunIntoABusyOutRefusesAndNamesTheHolder:16"
              "Characterize.RecoversTheParametersAnEmulatorComputesWith:14"
              "FaultCoverage.RisesFromTheSpecialSetToTheNightlyStream:11")
  string(REPLACE ":" ";" parts "${entry}")
  list(GET parts 0 name)
  list(GET parts 1 seconds)
  set_tests_properties("${name}" PROPERTIES COST ${seconds})
endforeach()

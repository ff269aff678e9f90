# Fills dsched.bash.in: DSCHED_OPTION_NAMES from the file NAMES, DSCHED_FLAGS from FLAGS.
file(STRINGS "${NAMES}" names)
list(JOIN names " " DSCHED_OPTION_NAMES)
set(DSCHED_FLAGS "${FLAGS}")
configure_file("${TEMPLATE}" "${DEST}" @ONLY)

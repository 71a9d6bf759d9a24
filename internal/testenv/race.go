package testenv

import (
	"os"
	"strings"
)

// raceExitPause turns off the race detector's pause at exit: a
// race-instrumented program sleeps atexit_sleep_ms (1000 by default) before
// it exits, so that other goroutines can finish printing a report. A report
// is printed when the race is found, and the exit code (66) does not depend
// on the pause; a test that starts the test binary as a subprocess dozens
// of times pays a second per process for nothing (a testscript of 20
// fuzz cases: 31.5 s under -race, 1.3 s without).
const raceExitPause = "atexit_sleep_ms=0"

// GORACE is the value of $GORACE for a test's subprocesses: this process's
// $GORACE after raceExitPause, so that a setting of the caller's, given
// later, wins. A binary built without -race ignores it.
func GORACE() string {
	cur := os.Getenv("GORACE")
	if strings.Contains(cur, raceExitPause) {
		return cur // set already (NoRaceExitPause in TestMain)
	}
	return strings.TrimSpace(raceExitPause + " " + cur)
}

// NoRaceExitPause sets $GORACE to GORACE() for every subprocess this test
// binary starts with the inherited environment (os.Environ, exec.Command's
// default). Call it from TestMain, before m.Run: it changes the process
// environment, which a parallel test must not do. The test binary's own
// pause is unchanged (its runtime read $GORACE at start).
func NoRaceExitPause() {
	os.Setenv("GORACE", GORACE())
}

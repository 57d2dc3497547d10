package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// Exit statuses: scripts tell a mistyped command line (fix the call) from a
// failure of the work itself (look at the data or the machine).
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// usageError marks an error in how the program was called: an unknown
// command or flag, a missing or extra argument, a flag value out of range.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usage wraps err as a usageError (nil stays nil).
func usage(err error) error {
	if err == nil {
		return nil
	}
	return usageError{err}
}

// exitCode is the process status for what run returned.
func exitCode(err error) int {
	var u usageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &u):
		return exitUsage
	}
	return exitFailure
}

// markUsageErrors makes cobra's own complaints about the command line
// (flags it cannot parse, arguments a command does not take) usage errors,
// for cmd and every command below it.
func markUsageErrors(cmd *cobra.Command) {
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usage(err) })
	if args := cmd.Args; args != nil {
		cmd.Args = func(c *cobra.Command, a []string) error { return usage(args(c, a)) }
	}
	for _, sub := range cmd.Commands() {
		markUsageErrors(sub)
	}
}

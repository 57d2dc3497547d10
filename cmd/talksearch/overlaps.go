package main

import "github.com/spf13/cobra"

// TODO: overlaps (stub).
func newOverlapsCmd(g *globals) *cobra.Command { return &cobra.Command{Use: "overlaps", Hidden: true} }

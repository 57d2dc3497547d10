package main

import "github.com/spf13/cobra"

// TODO: serve (stub).
func newServeCmd(g *globals) *cobra.Command { return &cobra.Command{Use: "serve", Hidden: true} }

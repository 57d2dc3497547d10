package main

import "github.com/spf13/cobra"

// TODO: index (stub).
func newIndexCmd(g *globals) *cobra.Command { return &cobra.Command{Use: "index", Hidden: true} }

// TODO: export (stub).
func newExportCmd(g *globals) *cobra.Command { return &cobra.Command{Use: "export", Hidden: true} }

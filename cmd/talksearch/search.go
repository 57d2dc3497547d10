package main

import "github.com/spf13/cobra"

// TODO: search (stub).
func newSearchCmd(g *globals) *cobra.Command { return &cobra.Command{Use: "search", Hidden: true} }

// TODO: related (stub).
func newRelatedCmd(g *globals) *cobra.Command { return &cobra.Command{Use: "related", Hidden: true} }

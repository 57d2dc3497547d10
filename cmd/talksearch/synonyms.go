package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/talksearch/talksearch/search/synonyms"
)

func newSynonymsCmd(g *globals) *cobra.Command {
	var mined bool
	cmd := &cobra.Command{
		Use:   "synonyms [--mined]",
		Short: "List the synonyms queries are expanded with",
		Long: `List the thesaurus the seeds give: every group of phrases that mean the
same, with where it comes from (curated, corpus, name, alias). --mined lists
only the aliases mined from the talks (a short form written beside its long
form, such as postgres → PostgreSQL), each with its evidence: the talks that
write both, and those that write each.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := g.loadCorpus()
			if err != nil {
				return err
			}
			if mined {
				as := synonyms.MineAliases(c.Talks)
				for _, a := range as {
					fmt.Fprintln(g.stdout, a)
				}
				fmt.Fprintf(g.stdout, "%d aliases mined from %d talks\n", len(as), len(c.Talks))
				return nil
			}
			for _, gr := range synonyms.NewThesaurus(c.Talks).Groups() {
				sep := " | "
				if gr.OneWay {
					sep = " → "
				}
				fmt.Fprintf(g.stdout, "%s  (%s)\n", strings.Join(gr.Phrases, sep), strings.Join(gr.Sources, ", "))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&mined, "mined", false, "list only the aliases mined from the talks, with their evidence")
	return cmd
}

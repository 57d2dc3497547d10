package synonyms_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/index"
	"github.com/talksearch/talksearch/index/ingest"
	"github.com/talksearch/talksearch/search/synonyms"
)

// aliasTalks is an invented corpus: "flump" is written beside Flumpgres,
// "z8r" beside Zookeepxer, "qb" beside QuillBase; "user" and "use" meet
// everywhere, and "vx" stands beside two names as often. Beside their long
// forms as often, but names of their own: "gl" (two letters of
// Glorbitz), "SNARF" (in capitals), "Blorp" (a name's last word), "marlo"
// (Marmalotion's letters, vowels and all).
func aliasTalks() []index.Talk {
	var ts []index.Talk
	add := func(n int, title, abstract string) {
		for i := 0; i < n; i++ {
			ts = append(ts, index.Talk{ID: fmt.Sprintf("t%d", len(ts)), Title: fmt.Sprintf("%s, part %d", title, i), Abstract: abstract})
		}
	}
	add(3, "Flumpgres at scale", "We run flump in production; users use it daily.")
	add(3, "Flumpgres internals", "The planner of Flumpgres, for every user who can use it.")
	add(4, "Zookeepxer clusters", "Running z8r for coordination, which users use.")
	add(2, "Zookeepxer tuning", "Tuning knobs.")
	add(4, "QuillBase replication", "qb replicas for the user who will use them.")
	add(2, "QuillBase storage", "Pages and logs.")
	add(3, "Vexmoor and Vortexa", "vx here, Vexmoor and Vortexa there.")
	add(2, "Vexmoor alone", "Nothing else.")
	add(2, "Vortexa alone", "Nothing else.")
	add(5, "Glorbitz servers", "We call gl what Glorbitz serves.")
	add(5, "Snarfelwick routing", "SNARF routes calls, and Snarfelwick logs them.")
	add(5, "Blorptastic data", "Mokka Blorp reads blorptastic data.")
	add(5, "Marmalotion engines", "marlo drives Marmalotion.")
	add(60, "Other things", "Unrelated words about cats.")
	return ts
}

func TestMineAliases(t *testing.T) {
	got := synonyms.MineAliases(aliasTalks())
	want := []synonyms.Alias{
		{Short: "flump", Long: "Flumpgres", Both: 3, ShortTalks: 3, LongTalks: 6},
		{Short: "qb", Long: "QuillBase", Both: 4, ShortTalks: 4, LongTalks: 6},
		{Short: "z8r", Long: "Zookeepxer", Both: 4, ShortTalks: 4, LongTalks: 6},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("aliases (-want +got):\n%s", diff)
	}
	th := synonyms.NewThesaurus(aliasTalks())
	if ex := th.Expand([]string{"flump", "replication"}); len(ex) != 1 || ex[0].String() != "flump → Flumpgres" || ex[0].Sources[0] != synonyms.SourceAlias {
		t.Errorf("flump replication: %v", ex)
	}
	if ex := th.Expand([]string{"Flumpgres"}); len(ex) != 0 {
		t.Errorf("Flumpgres, an alias's long form, expands: %v", ex)
	}
}

// TestMineAliasesFOSDEMArchive names the aliases the FOSDEM archive of
// 2007–2023 shows, with their evidence, and short forms it must not take.
func TestMineAliasesFOSDEMArchive(t *testing.T) {
	var files []string
	for y := 2007; y <= 2023; y++ {
		files = append(files, filepath.Join("..", "..", "..", "shared", "datasets", "fosdem", fmt.Sprintf("fosdem-%d.xml", y)))
	}
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			t.Skipf("FOSDEM dataset %s absent: the archive's aliases are not checked", f)
		}
	}
	c, err := ingest.LoadPaths(files, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]synonyms.Alias{}
	var all []string
	for _, a := range synonyms.MineAliases(c.Talks) {
		got[a.Short] = a
		all = append(all, a.String())
	}
	t.Logf("%d aliases:\n%s", len(all), strings.Join(all, "\n"))
	for _, want := range []string{
		"postgres → PostgreSQL (both in 35 talks; postgres in 47, PostgreSQL in 208)",
		"pg → PostgreSQL (both in 10 talks; pg in 11, PostgreSQL in 208)",
		"k8s → Kubernetes (both in 24 talks; k8s in 30, Kubernetes in 263)",
		"kube → Kubernetes (both in 7 talks; kube in 8, Kubernetes in 263)",
		"js → JavaScript (both in 57 talks; js in 127, JavaScript in 274)",
		"wasm → WebAssembly (both in 8 talks; wasm in 19, WebAssembly in 35)",
		"osm → OpenStreetMap (both in 17 talks; osm in 23, OpenStreetMap in 45)",
		"ci → Continuous Integration (both in 46 talks; ci in 142, Continuous Integration in 120)",
		"config → configuration (both in 39 talks; config in 74, configuration in 400)",
		"a11y → accessibility (both in 5 talks; a11y in 6, accessibility in 67)",
	} {
		short := want[:strings.Index(want, " ")]
		if a, ok := got[short]; !ok || a.String() != want {
			t.Errorf("%s: got %q, want %q", short, a, want)
		}
	}
	// English words, a devroom's name, a model number and a phrase cut
	// short; two letters of a word (py.test's, the UN's, Wi-Fi's, a
	// domain's); acronyms and names of their own (SER, OSOR, Kaitai
	// Struct, EUROPA); a word keeping its vowels (virtio).
	for _, short := range []string{"use", "contain", "form", "dev", "n9", "paas", "lua", "nat",
		"py", "un", "wi", "eu", "fr", "ser", "osor", "struct", "europa", "virtio"} {
		if a, ok := got[short]; ok {
			t.Errorf("%s taken for %s", short, a)
		}
	}
	if n := len(got); n < 60 || n > 100 {
		t.Errorf("%d aliases, want 60 to 100 (a few per hundred talks)", n)
	}
	if !slices.ContainsFunc(all, func(s string) bool { return strings.HasPrefix(s, "gc → garbage collector") }) {
		t.Error("gc is not garbage collector")
	}
}

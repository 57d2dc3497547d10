package web

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/talksearch/talksearch/search"
)

func TestFacetOptions(t *testing.T) {
	values := []search.FacetValue{
		{Value: "Inference & Production", Count: 15, Selected: true},
		{Value: "Training Systems", Count: 9},
	}
	tests := []struct {
		name     string
		values   []search.FacetValue
		selected []string
		want     []facetOption
	}{
		{"selection in another case ticks the real value, no phantom", values, []string{"inference & production"}, []facetOption{
			{Value: "Inference & Production", Count: 15, Checked: true},
			{Value: "Training Systems", Count: 9},
		}},
		{"engine's mark alone ticks", values, nil, []facetOption{
			{Value: "Inference & Production", Count: 15, Checked: true},
			{Value: "Training Systems", Count: 9},
		}},
		{"a selection nothing counts stays, to be unticked", []search.FacetValue{{Value: "Training Systems", Count: 9}}, []string{"Attic"}, []facetOption{
			{Value: "Training Systems", Count: 9},
			{Value: "Attic", Checked: true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := facetOptions("track", "Track", tt.values, tt.selected, 2)
			if diff := cmp.Diff(tt.want, g.Options); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
			if g.Missing != 2 {
				t.Errorf("missing = %d, want 2", g.Missing)
			}
		})
	}
}

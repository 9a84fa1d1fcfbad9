package kube

import (
	"encoding/json"
	"testing"
)

// The folder the spec came from joins the sandbox's hidden paths the
// spec already has, so the child's commands cannot read the key in it;
// the rest of the spec is kept as it was.
func TestHideAddsTheSpecsFolder(t *testing.T) {
	line := []byte(`{"spec":{"prompt":"go","toolbox":{"names":["read_file"],"sandbox":{"hidden":["/run/other"],"network":false}}}}`)
	got, err := hide(line, "/run/secret")
	if err != nil {
		t.Fatal(err)
	}
	var spec struct {
		Spec struct {
			Prompt  string `json:"prompt"`
			Toolbox struct {
				Names   []string `json:"names"`
				Sandbox struct {
					Hidden  []string `json:"hidden"`
					Network *bool    `json:"network"`
				} `json:"sandbox"`
			} `json:"toolbox"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(got, &spec); err != nil {
		t.Fatal(err)
	}
	box := spec.Spec.Toolbox
	if spec.Spec.Prompt != "go" || len(box.Names) != 1 || box.Sandbox.Network == nil || len(box.Sandbox.Hidden) != 2 || box.Sandbox.Hidden[1] != "/run/secret" {
		t.Fatalf("hide gave %s", got)
	}
	if got, err := hide([]byte(`{"spec":{"toolbox":{"sandbox":{}}}}`), "/run/secret"); err != nil || string(got) != `{"spec":{"toolbox":{"sandbox":{"hidden":["/run/secret"]}}}}` {
		t.Fatalf("no hidden paths before: %s, %v", got, err)
	}
}

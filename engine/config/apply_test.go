package config

import (
	"testing"

	"github.com/seed-e4e525a6/baton/engine/permission"
)

func TestPermissionMode(t *testing.T) {
	tests := []struct {
		yolo, headless bool
		want           permission.Mode
	}{
		{false, false, permission.Ask},
		{false, true, permission.Headless},
		{true, true, permission.Yolo},
		{true, false, permission.Yolo},
	}
	for _, tt := range tests {
		if got := (Config{Yolo: tt.yolo}).Mode(tt.headless); got != tt.want {
			t.Errorf("yolo %v headless %v: mode %s, want %s", tt.yolo, tt.headless, got, tt.want)
		}
	}
}

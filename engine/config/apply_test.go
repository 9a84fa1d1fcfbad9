package config

import (
	"testing"

	"github.com/seed-e4e525a6/baton/engine"
)

func TestPermissionMode(t *testing.T) {
	tests := []struct {
		yolo, headless bool
		want           engine.PermissionMode
	}{
		{false, false, engine.ModeAsk},
		{false, true, engine.ModeHeadless},
		{true, true, engine.ModeYolo},
		{true, false, engine.ModeYolo},
	}
	for _, tt := range tests {
		if got := (Config{Yolo: tt.yolo}).Mode(tt.headless); got != tt.want {
			t.Errorf("yolo %v headless %v: mode %s, want %s", tt.yolo, tt.headless, got, tt.want)
		}
	}
}

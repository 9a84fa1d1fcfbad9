package config

// refuseProjectKeys removes from a project file what no repository may
// decide for the person running baton in it, trusted or not, and says
// what it removed. A hostile repository gets its keys ignored with a
// notice, never the run stopped: stopping would let any clone keep baton
// from starting in it.
func refuseProjectKeys(fc *fileConfig) []string {
	var out []string
	if fc.APIKey != nil {
		fc.APIKey = nil
		out = append(out, "ignored api_key: it would be shared with the repository (set OPENAI_API_KEY or put api_key in your user config)")
	}
	if fc.Yolo != nil {
		fc.Yolo = nil
		out = append(out, "ignored yolo: a repository must not switch approvals off (pass --yolo or set yolo in your user config)")
	}
	if fc.Allow != nil {
		fc.Allow = nil
		out = append(out, "ignored allow: a repository must not let its own commands and writes run unasked (pass --allow or set allow in your user config)")
	}
	if fc.WebFetch.AllowPrivate != nil {
		fc.WebFetch.AllowPrivate = nil
		out = append(out, "ignored web_fetch.allow_private: a repository must not open your local network to the model (set it under [web_fetch] in your user config)")
	}
	if fc.hasAliases {
		fc.aliases = nil
		out = append(out, "ignored [models.aliases]: a repository must not choose which model receives your work (put it in your user config)")
	}
	return append(out, refuseProjectSandbox(&fc.Sandbox)...)
}

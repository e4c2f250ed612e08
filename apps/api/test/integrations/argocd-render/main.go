// Renders an Argo CD notification template body the way Argo CD's notifications-engine does
// (pkg/services/webhook.go: text/template, default missingkey, so a missing key prints
// `<no value>`), for one Application: the test of Shiplog's template against real Applications.
// Argo CD adds sprig's functions and its own; the few the template uses are written here with
// sprig's and Argo CD's semantics (toJson, trunc, regexMatch, repo.FullNameByRepoURL), since
// this machine has the Go standard library and no module proxy.
//
// Usage: go run main.go <template file> <Application JSON file>
package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strings"
	"text/template"
)

// sprig's toJson: json.Marshal as a string, empty on error.
func toJSON(value interface{}) string {
	out, err := json.Marshal(value)
	if err != nil {
		return ""
	}
	return string(out)
}

// sprig's trunc.
func trunc(count int, text string) string {
	if count < 0 && len(text)+count > 0 {
		return text[len(text)+count:]
	}
	if count >= 0 && len(text) > count {
		return text[:count]
	}
	return text
}

// sprig's regexMatch.
func regexMatch(expression string, text string) bool {
	matched, _ := regexp.MatchString(expression, text)
	return matched
}

var gitSuffix = regexp.MustCompile(`\.git$`)
var scpLike = regexp.MustCompile(`^[\w.-]+@([\w.-]+):(.*)$`)

// Argo CD's repo.FullNameByRepoURL (util/notification/expression/repo/repo.go): the first two
// segments of the repository URL's path, `.git` removed.
func fullNameByRepoURL(raw string) string {
	path := raw
	if match := scpLike.FindStringSubmatch(raw); match != nil {
		path = match[2]
	} else if parsed, err := url.Parse(raw); err == nil {
		path = parsed.Path
	}
	path = gitSuffix.ReplaceAllString(path, "")
	var parts []string
	for _, part := range strings.Split(path, "/") {
		if part != "" {
			parts = append(parts, part)
		}
	}
	if len(parts) >= 2 {
		return strings.Join(parts[:2], "/")
	}
	return path
}

func main() {
	body, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	raw, err := os.ReadFile(os.Args[2])
	if err != nil {
		panic(err)
	}
	var app map[string]interface{}
	if err := json.Unmarshal(raw, &app); err != nil {
		panic(err)
	}
	functions := template.FuncMap{"toJson": toJSON, "trunc": trunc, "regexMatch": regexMatch}
	parsed := template.Must(template.New("shiplog").Funcs(functions).Parse(string(body)))
	vars := map[string]interface{}{
		"app":     app,
		"context": map[string]interface{}{"argocdUrl": "https://argocd.example.com", "notificationType": "shiplog"},
		"repo":    map[string]interface{}{"FullNameByRepoURL": fullNameByRepoURL},
	}
	if err := parsed.Execute(os.Stdout, vars); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

{{- define "plain.name" -}}plain{{- end }}

/**
 * Whole-shell helm transcripts against the simulated cluster (kubeadm-calico, seed 1), in the
 * format of testing/transcripts.ts. The charts come from the offline repository
 * (fixtures/helm/stable, served as https://charts.example.com/stable).
 */
import { transcriptTests } from '../../testing/transcripts.js';

transcriptTests(new URL('./testdata/transcripts/', import.meta.url), 'helm transcript');

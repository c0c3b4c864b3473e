/**
 * Whole-shell transcripts for the verbs that change the cluster, on the kubeadm-calico fixture
 * (seed 1) unless a transcript names another (kubeadm-calico-gateway for the Gateway API). The
 * format (`$ command` and its output, `#! edit`, `#! file`, `#! fixture`) and UPDATE_GOLDEN=1:
 * testing/transcripts.ts.
 */
import { transcriptTests } from '../../../testing/transcripts.js';

transcriptTests(new URL('./testdata/transcripts/', import.meta.url), 'transcript');

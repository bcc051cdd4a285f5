package io.inferbench.analysis;

import java.util.List;

/** Everything the batch-scaling analysis derives from one run. */
public record Analysis(RegimeThresholds thresholds, List<SeriesFit> fits, List<SeqScalingFit> seqScaling) {
}

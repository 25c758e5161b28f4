package dev.kcshare.core.verdict.internal;

import java.util.List;

/**
 * A parsed evidence document: either one evidence object or an array of them.
 *
 * @param inputs the evidence objects in document order
 * @param isArray the root was an array, so the answer should be an array of verdicts too (even for
 *     zero or one element)
 */
public record EvidenceDocument(List<EvidenceInput> inputs, boolean isArray) {
  public EvidenceDocument {
    inputs = List.copyOf(inputs);
  }
}

package dev.kcshare.core.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kcshare.core.policy.internal.GatewaySeeding.Entry;
import dev.kcshare.core.policy.internal.GatewaySeeding.Gateway;
import dev.kcshare.core.policy.internal.GatewaySeeding.Kind;
import dev.kcshare.core.policy.internal.GatewaySeeding.Plan;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class GatewaySeedingTest {
  private static Entry server(String name) {
    return new Entry(name, Kind.SERVER, true, false, false);
  }

  @Test
  void mcphubIsolatesEverythingThatMayNotShareAndMarksOnce() {
    List<Entry> entries =
        List.of(
            server("shared-ok"),
            server("b"),
            server("a"),
            new Entry("pinned", Kind.SERVER, true, false, true),
            new Entry("remote", Kind.SERVER, false, false, false),
            server("done"));

    Plan plan = GatewaySeeding.plan(Gateway.MCPHUB, entries, Set.of("done"), "shared-ok"::equals);

    assertThat(plan.write()).containsExactly("a", "b");
    assertThat(plan.markSeeded()).containsExactly("a", "b", "pinned", "shared-ok");
    assertThat(plan.keptExplicit()).containsExactly("pinned");
    assertThat(plan.shareRecommended()).containsExactly("shared-ok");
    assertThat(plan.notStdio()).containsExactly("remote");
    assertThat(plan.templated()).isEmpty();
    assertThat(plan.staticShared()).isEmpty();
  }

  @Test
  void oneMcpWritesOnlyTemplatesWithoutVariablesAndReportsStaticServers() {
    List<Entry> entries =
        List.of(
            server("static-a"),
            server("static-ok"),
            new Entry("tpl", Kind.TEMPLATE, true, false, false),
            new Entry("tpl-vars", Kind.TEMPLATE, true, true, false),
            new Entry("tpl-set", Kind.TEMPLATE, true, false, true));

    Plan plan =
        GatewaySeeding.plan(Gateway.ONE_MCP, entries, Set.of("static-a"), "static-ok"::equals);

    assertThat(plan.write()).containsExactly("tpl");
    assertThat(plan.markSeeded()).containsExactly("tpl", "tpl-set");
    assertThat(plan.templated()).containsExactly("tpl-vars");
    // Static servers are never marked, so a marker does not hide one that is still shared.
    assertThat(plan.staticShared()).containsExactly("static-a");
  }

  @Test
  void anEmptyPlanIsEmpty() {
    Plan plan =
        GatewaySeeding.plan(Gateway.MCPHUB, List.of(server("a")), Set.of("a"), name -> false);

    assertThat(plan.isEmpty()).isTrue();
  }
}

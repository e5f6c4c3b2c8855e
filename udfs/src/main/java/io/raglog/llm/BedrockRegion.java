package io.raglog.llm;

import java.net.URI;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.core.SdkSystemSetting;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.regions.PartitionMetadata;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;

/**
 * The AWS region the bedrock provider talks to and signs for. AWS's own host names say it (the runtime endpoint, its
 * FIPS and VPC endpoint forms), and then nothing else may contradict them: a signature for another region is refused
 * with a 403 that does not say why. A proxy or a private DNS name says nothing, and then {@code llm.region} does.
 */
final class BedrockRegion {

    private static final Pattern REGION = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)+");
    /** {@code bedrock-runtime[-fips].REGION.amazonaws.com}; a VPC endpoint's {@code *.bedrock-runtime.REGION.vpce.*} */
    private static final Pattern RUNTIME_HOST = Pattern.compile(
            "(?:^|\\.)bedrock-runtime(?:-fips)?\\.([a-z0-9-]+)\\.(?:vpce\\.)?amazonaws\\.(?:com|com\\.cn|eu)$");

    private BedrockRegion() {}

    static boolean isRegion(String region) {
        return REGION.matcher(region).matches();
    }

    /** The region's Bedrock runtime endpoint, in its partition's domain ({@code amazonaws.com.cn} for China). */
    static String runtimeUrl(String region) {
        return "https://bedrock-runtime." + region + "." + PartitionMetadata.of(Region.of(region)).dnsSuffix();
    }

    /** {@code AWS_REGION} (or the {@code aws.region} system property), as the AWS SDK reads it; null when unset. */
    static String fromEnvironment() {
        return SdkSystemSetting.AWS_REGION.getStringValue().filter(r -> !r.isBlank()).map(String::strip)
                .orElse(null);
    }

    /** The region an AWS host name of the Bedrock runtime names; null for any other host. */
    static String ofHost(String baseUrl) {
        String host = URI.create(baseUrl).getHost();
        Matcher m = RUNTIME_HOST.matcher(host == null ? "" : host.toLowerCase(Locale.ROOT));
        return m.find() ? m.group(1) : null;
    }

    /**
     * The region requests are signed for: the base URL's host's, else {@code llm.region}, else the AWS SDK's default
     * region chain (AWS_REGION, the profile, instance metadata: asked once, at start, off any event loop).
     *
     * @throws IllegalArgumentException when {@code llm.region} contradicts the host, or no region is known at all
     */
    static String toSignFor(LlmSettings settings) {
        String host = ofHost(settings.baseUrl());
        if (host != null && settings.region() != null && !host.equals(settings.region())) {
            throw new IllegalArgumentException(LlmSettings.REGION + " " + settings.region() + " contradicts "
                    + LlmSettings.BASE_URL + ", whose host is in " + host + "; leave " + LlmSettings.REGION
                    + " unset or make them agree");
        }
        if (host != null) {
            return host;
        }
        if (settings.region() != null) {
            return settings.region();
        }
        try {
            return new DefaultAwsRegionProviderChain().getRegion().id();
        } catch (SdkClientException e) {
            throw new IllegalArgumentException("provider bedrock signs its requests for an AWS region, and "
                    + LlmSettings.BASE_URL + "'s host names none: set " + LlmSettings.REGION + " or AWS_REGION", e);
        }
    }
}

"""Response headers for every page: the Content-Security-Policy (django-csp, with the
admin's one exception) and the Permissions-Policy."""

from csp.middleware import CSPMiddleware, PolicyParts
from django.conf import settings


def _is_admin(request) -> bool:
    match = getattr(request, "resolver_match", None)
    return match is not None and "admin" in match.namespaces


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """settings.CONTENT_SECURITY_POLICY everywhere; on the admin's pages, whose
    templates set style attributes, style attributes are allowed as well (scripts are
    still 'self' only)."""

    def get_policy_parts(self, request, response, report_only=False) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        if not report_only and _is_admin(request) and parts.replace is None:
            parts.replace = {"style-src-attr": settings.CSP_ADMIN_STYLE_ATTRIBUTES}
        return parts


class PermissionsPolicyMiddleware:
    """Permissions-Policy: no camera, microphone, location, payment or USB for the site
    or anything it might embed (settings.PERMISSIONS_POLICY)."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.header = settings.PERMISSIONS_POLICY

    def __call__(self, request):
        response = self.get_response(request)
        if self.header:
            response.headers.setdefault("Permissions-Policy", self.header)
        return response

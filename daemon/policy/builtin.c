/* The built-in policy layer as JSON text, parsed and explained like a file. */
#include "daemon/policy/policy.h"
#include "daemon/policy/builtin.h"

/*
 * Most patterns start with a slash and a ** component because these names
 * are dangerous at any depth of any writable tree (a nested repository has
 * its own .git/hooks), and whether or not they exist yet: the enforcer must
 * keep new ones from being created too. Rule ids name what is protected.
 */
static const char builtin_json[] =
	"{\n"
	"  \"protect\": [\n"
	"  {\"path\": \"/**/.bashrc\", \"id\": \"bashrc\",\n"
	"   \"reason\": \"shell start-up files run outside the sandbox\"},\n"
	"  {\"path\": \"/**/.bash_profile\", \"id\": \"bash_profile\",\n"
	"   \"reason\": \"shell start-up files run outside the sandbox\"},\n"
	"  {\"path\": \"/**/.bash_login\", \"id\": \"bash_login\",\n"
	"   \"reason\": \"shell start-up files run outside the sandbox\"},\n"
	"  {\"path\": \"/**/.profile\", \"id\": \"profile\",\n"
	"   \"reason\": \"shell start-up files run outside the sandbox\"},\n"
	"  {\"path\": \"/**/.zshrc\", \"id\": \"zshrc\",\n"
	"   \"reason\": \"shell start-up files run outside the sandbox\"},\n"
	"  {\"path\": \"/**/.zshenv\", \"id\": \"zshenv\",\n"
	"   \"reason\": \"shell start-up files run outside the sandbox\"},\n"
	"  {\"path\": \"/**/.zprofile\", \"id\": \"zprofile\",\n"
	"   \"reason\": \"shell start-up files run outside the sandbox\"},\n"
	"  {\"path\": \"/**/.zlogin\", \"id\": \"zlogin\",\n"
	"   \"reason\": \"shell start-up files run outside the sandbox\"},\n"
	"  {\"path\": \"/**/.gitconfig\", \"id\": \"gitconfig\",\n"
	"   \"reason\": \"git runs hooks and config commands unsandboxed\"},\n"
	"  {\"path\": \"/**/.gitmodules\", \"id\": \"gitmodules\",\n"
	"   \"reason\": \"git runs hooks and config commands unsandboxed\"},\n"
	"  {\"path\": \"/**/.git/config\", \"id\": \"git-config\",\n"
	"   \"reason\": \"git runs hooks and config commands unsandboxed\"},\n"
	"  {\"path\": \"/**/.git/hooks\", \"id\": \"git-hooks\",\n"
	"   \"reason\": \"git runs hooks and config commands unsandboxed\"},\n"
	"  {\"path\": \"/**/.git/commondir\",\n"
	"   \"id\": \"git-commondir\",\n"
	"   \"reason\": \"git reads another repository's config by it\"},\n"
	"  {\"path\": \"/**/.git/config.worktree\",\n"
	"   \"id\": \"git-config-worktree\",\n"
	"   \"reason\": \"git runs hooks and config commands unsandboxed\"},\n"
	"  {\"path\": \"/**/.git/worktrees/*/commondir\",\n"
	"   \"id\": \"git-wt-commondir\",\n"
	"   \"reason\": \"git reads another repository's config by it\"},\n"
	"  {\"path\": \"/**/.git/worktrees/*/gitdir\",\n"
	"   \"id\": \"git-wt-gitdir\",\n"
	"   \"reason\": \"git worktree prune and repair act on it\"},\n"
	"  {\"path\": \"/**/.git/worktrees/*/config\",\n"
	"   \"id\": \"git-wt-config\",\n"
	"   \"reason\": \"git runs hooks and config commands unsandboxed\"},\n"
	"  {\"path\": \"/**/.git/worktrees/*/config.worktree\",\n"
	"   \"id\": \"git-wt-config-worktree\",\n"
	"   \"reason\": \"git runs hooks and config commands unsandboxed\"},\n"
	"  {\"path\": \"/**/.git/worktrees/*/hooks\",\n"
	"   \"id\": \"git-wt-hooks\",\n"
	"   \"reason\": \"git runs hooks and config commands unsandboxed\"},\n"
	"  {\"path\": \"/**/.git/modules/**/config\",\n"
	"   \"id\": \"git-modules-config\",\n"
	"   \"reason\": \"git runs hooks and config commands unsandboxed\"},\n"
	"  {\"path\": \"/**/.git/modules/**/config.worktree\",\n"
	"   \"id\": \"git-modules-config-worktree\",\n"
	"   \"reason\": \"git runs hooks and config commands unsandboxed\"},\n"
	"  {\"path\": \"/**/.git/modules/**/hooks\",\n"
	"   \"id\": \"git-modules-hooks\",\n"
	"   \"reason\": \"git runs hooks and config commands unsandboxed\"},\n"
	"  {\"path\": \"/**/.git/modules/**/commondir\",\n"
	"   \"id\": \"git-modules-commondir\",\n"
	"   \"reason\": \"git reads another repository's config by it\"},\n"
	"  {\"path\": \"~/.config/git\", \"id\": \"git-xdg\",\n"
	"   \"reason\": \"git runs hooks and config commands unsandboxed\"},\n"
	"  {\"path\": \"/**/.vscode\", \"id\": \"vscode\",\n"
	"   \"reason\": \"editors run tasks from these unsandboxed\"},\n"
	"  {\"path\": \"/**/.idea\", \"id\": \"idea\",\n"
	"   \"reason\": \"editors run tasks from these unsandboxed\"},\n"
	"  {\"path\": \"/**/.mcp.json\", \"id\": \"mcp\",\n"
	"   \"reason\": \"agent config starts programs unsandboxed\"},\n"
	"  {\"path\": \"/**/.claude/commands\", \"id\": \"claude-cmds\",\n"
	"   \"reason\": \"agent config starts programs unsandboxed\"},\n"
	"  {\"path\": \"/**/.claude/agents\", \"id\": \"claude-agents\",\n"
	"   \"reason\": \"agent config starts programs unsandboxed\"},\n"
	"  {\"path\": \"/**/.ripgreprc\", \"id\": \"ripgreprc\",\n"
	"   \"reason\": \"agent config starts programs unsandboxed\"},\n"
	"  {\"path\": \"/**/.sbx\", \"id\": \"sbx\",\n"
	"   \"reason\": \"the sandbox must not widen its own policy\"},\n"
	"  {\"path\": \"~/.config/sbx\", \"id\": \"sbx-user\",\n"
	"   \"reason\": \"the sandbox must not widen its own policy\"},\n"
	"  {\"path\": \"~/.srt-settings.json\", \"id\": \"srt-settings\",\n"
	"   \"reason\": \"the sandbox must not widen its own policy\"},\n"
	"  {\"path\": \"~/.ssh\", \"id\": \"ssh\",\n"
	"   \"reason\": \"authorized_keys and ssh config grant logins\"}\n"
	"  ],\n"
	"  \"ignoreFiles\": [\n"
	"  {\"name\": \".sbxignore\", \"id\": \"sbxignore\",\n"
	"   \"reason\": \"gitignore-style list of paths the sandbox masks\"},\n"
	"  {\"name\": \".cursorignore\", \"id\": \"cursorignore\",\n"
	"   \"reason\": \"read like .sbxignore, for compatibility\"}\n"
	"  ]\n"
	"}\n";

const char *
policy_builtin_text(void)
{
	return builtin_json;
}

int
policy_builtin_new(const char *home, struct policy **out)
{
	struct policy_diags diags = { 0 };
	struct policy_ctx ctx = {
		.layer = POLICY_LAYER_BUILTIN,
		.file = "<builtin>",
		.home = home,
	};
	int r;

	r = policy_parse(builtin_json, sizeof(builtin_json) - 1, &ctx, out,
	    &diags);
	policy_diag_free(&diags);
	return r;
}

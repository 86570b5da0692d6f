//===- StreamIdentity.cpp - which stream an expression names --------------===//
#include "StreamIdentity.h"
#include "ast/CheckUtils.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace llvm;

namespace cuda_scope {

const Expr *argOrNull(const CallExpr *CE, int Index) {
  return Index >= 0 && static_cast<unsigned>(Index) < CE->getNumArgs() ? CE->getArg(Index)
                                                                       : nullptr;
}

std::optional<int64_t> constantValue(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

const Decl *identityDecl(const Expr *E) {
  for (unsigned Step = 0; E && Step < 8; ++Step) {
    E = E->IgnoreParenCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf) {
      E = UO->getSubExpr();
      continue;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      E = AS->getBase();
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return DRE->getDecl()->getCanonicalDecl();
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return ME->getMemberDecl()->getCanonicalDecl();
    return nullptr;
  }
  return nullptr;
}

StreamHandle streamHandleOf(const Expr *A) {
  if (!A)
    return StreamHandle::Other;
  A = A->IgnoreParenImpCasts();
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(A))
    A = D->getExpr();
  A = A->IgnoreParenCasts();
  // A null pointer is the legacy stream, whatever the headers call it.
  if (isa<CXXNullPtrLiteralExpr, GNUNullExpr>(A))
    return StreamHandle::Legacy;
  if (const auto *IL = dyn_cast<IntegerLiteral>(A))
    return streamHandleFromValue(IL->getValue().getLimitedValue(INT64_MAX));
  return StreamHandle::Other;
}

bool launchIsOnLegacyStream(const Expr *E) {
  const auto *K = dyn_cast<CUDAKernelCallExpr>(E);
  if (!K || !K->getConfig())
    return false;
  const CallExpr *Config = K->getConfig();
  return Config->getNumArgs() < 4 || streamHandleOf(Config->getArg(3)) == StreamHandle::Legacy;
}

std::string streamText(const Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  StringRef T = Lexer::getSourceText(CharSourceRange::getTokenRange(E->getSourceRange()), SM, LO);
  if (T.empty())
    T = Lexer::getSourceText(SM.getExpansionRange(E->getSourceRange()), SM, LO);
  return T.empty() ? std::string("the stream") : T.str();
}

std::string streamKey(const Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreParenCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return "d" + utohexstr(reinterpret_cast<uintptr_t>(DRE->getDecl()->getCanonicalDecl()));
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return streamKey(ME->getBase(), Ctx) + ".m" +
           utohexstr(reinterpret_cast<uintptr_t>(ME->getMemberDecl()->getCanonicalDecl()));
  if (isa<CXXThisExpr>(E))
    return "this";
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    // Streams[I] in two loops over I (begin every capture, then end every
    // one) is the same stream: a local integer index counts by its name.
    const auto *Idx = dyn_cast<DeclRefExpr>(AS->getIdx()->IgnoreParenImpCasts());
    const auto *IV = Idx ? dyn_cast<VarDecl>(Idx->getDecl()) : nullptr;
    if (IV && IV->hasLocalStorage() && !isa<ParmVarDecl>(IV) && IV->getType()->isIntegerType())
      return streamKey(AS->getBase(), Ctx) + "[v" + IV->getName().str() + "]";
    return streamKey(AS->getBase(), Ctx) + "[" + streamKey(AS->getIdx(), Ctx) + "]";
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Deref)
    return "*" + streamKey(UO->getSubExpr(), Ctx);
  std::string T = streamText(E, Ctx);
  erase_if(T, [](char C) { return isSpace(C); });
  return "t" + T;
}

bool indexedByLocal(StringRef Key) { return Key.contains("[v"); }

void CreatedStreams::add(const CallExpr *CE, const ASTContext &Ctx) {
  const auto *Callee = dyn_cast_or_null<NamedDecl>(CE->getCalleeDecl());
  const CudaApiInfo *Api = lookupCudaApi(identifierOf(Callee));
  const Decl *Stream = Api ? identityDecl(argOrNull(CE, Api->StreamArg)) : nullptr;
  if (!Stream)
    return;
  StreamFlags F = streamFlagsOfCreation(*Api, constantValue(argOrNull(CE, Api->ModeArg), Ctx));
  auto [It, New] = Flags.try_emplace(Stream, F);
  if (!New && It->second != F)
    It->second = StreamFlags::Unknown;
}

StreamFlags CreatedStreams::flagsOf(const Decl *Identity) const {
  auto It = Flags.find(Identity);
  return It == Flags.end() ? StreamFlags::Unknown : It->second;
}

bool CreatedStreams::createdIn(const Expr *Stream, const FunctionDecl *F) const {
  const auto *Own = dyn_cast_or_null<VarDecl>(identityDecl(Stream));
  return Own && Own->hasLocalStorage() && !isa<ParmVarDecl>(Own) && Own->getDeclContext() == F &&
         Flags.count(Own);
}

} // namespace cuda_scope
